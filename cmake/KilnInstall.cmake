# `cmake --install`: the tools, libKilnCompiler.so and its helper
# libexec/kiln/kiln-tool-supervisor, the runtime library
# (static and shared), the
# headers of the compiler, the plugin API, the C API and the runtime, and a
# CMake package (lib/cmake/kiln) with which plugins build out of tree:
#
#   find_package(Kiln REQUIRED CONFIG)   # -DKiln_DIR=<prefix>/lib/cmake/kiln
#   kiln_add_plugin(my_plugin SRCS PluginRegistration.cpp)
install(TARGETS kiln-compile kiln-opt kiln-run kiln-benchmark kiln-tune
        RUNTIME DESTINATION bin)
install(PROGRAMS ${KILN_TOOLS_DIR}/kiln-tune-dask DESTINATION bin)
install(TARGETS KilnCompiler LIBRARY DESTINATION lib)
install(TARGETS kiln-tool-supervisor RUNTIME DESTINATION libexec/kiln)
install(TARGETS kiln_runtime ARCHIVE DESTINATION lib)
install(TARGETS kiln_runtime_shared LIBRARY DESTINATION lib)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/kiln
                  ${PROJECT_SOURCE_DIR}/include/kiln-c
        DESTINATION include
        FILES_MATCHING PATTERN "*.h")
# Generated: ODS declarations and BuildInfo.h (the build id plugins carry).
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/kiln
        DESTINATION include
        FILES_MATCHING PATTERN "*.h" PATTERN "*.h.inc"
        PATTERN "CMakeFiles" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/
        DESTINATION include)

configure_file(${PROJECT_SOURCE_DIR}/cmake/KilnConfig.cmake.in
               ${PROJECT_BINARY_DIR}/lib/cmake/kiln/KilnConfig.cmake @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/kiln/KilnConfig.cmake
              ${PROJECT_SOURCE_DIR}/cmake/KilnAddPlugin.cmake
        DESTINATION lib/cmake/kiln)
