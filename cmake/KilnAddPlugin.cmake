# kiln_add_plugin(ID SRCS file... [LINK_LIBS lib...] [SHARED])
#
# Builds the plugin in the current folder. In Kiln's own build, a plugin is
# linked into the compiler (its registration function is called from the
# generated registry) unless SHARED is given; with SHARED, or against an
# installed Kiln (find_package(Kiln)), it becomes the shared object
# kiln_plugin_<ID>.so that --kiln-load-plugin loads.
function(kiln_add_plugin id)
  cmake_parse_arguments(ARG "SHARED" "" "SRCS;LINK_LIBS" ${ARGN})
  if(NOT id MATCHES "^[a-z0-9_]+$")
    message(FATAL_ERROR "kiln_add_plugin: plugin id '${id}' must be lower-case letters, digits and underscores")
  endif()
  if(NOT ARG_SRCS)
    message(FATAL_ERROR "kiln_add_plugin(${id}): no SRCS")
  endif()

  if(KILN_IN_TREE AND NOT ARG_SHARED)
    # Objects linked into libKilnCompiler.so.
    add_library(KilnPlugin_${id} OBJECT ${ARG_SRCS})
    set_target_properties(KilnPlugin_${id} PROPERTIES
      POSITION_INDEPENDENT_CODE ON)
    add_dependencies(KilnPlugin_${id} KilnCompilerHeaders)
    if(ARG_LINK_LIBS)
      target_link_libraries(KilnPlugin_${id} PUBLIC ${ARG_LINK_LIBS})
    endif()
    set_property(GLOBAL APPEND PROPERTY KILN_STATIC_PLUGINS ${id})
    return()
  endif()

  add_library(kiln_plugin_${id} MODULE ${ARG_SRCS})
  target_compile_definitions(kiln_plugin_${id} PRIVATE KILN_PLUGIN_SHARED)
  set_target_properties(kiln_plugin_${id} PROPERTIES PREFIX "")
  if(KILN_IN_TREE)
    add_dependencies(kiln_plugin_${id} KilnCompilerHeaders)
    target_link_libraries(kiln_plugin_${id} PRIVATE KilnCompiler MLIR LLVM
                          ${ARG_LINK_LIBS})
    set_target_properties(kiln_plugin_${id} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib/plugins)
  else()
    target_link_libraries(kiln_plugin_${id} PRIVATE Kiln::KilnCompiler
                          ${ARG_LINK_LIBS})
  endif()
endfunction()
