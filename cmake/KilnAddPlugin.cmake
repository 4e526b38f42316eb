# kiln_add_plugin(ID SRCS file... [LINK_LIBS lib...] [DEPENDS target...]
#                 [SHARED] [OUTPUT_DIRECTORY dir])
#
# Builds the plugin in the current folder. In Kiln's own build, a plugin is
# linked into the compiler (its registration function is called from the
# generated registry) unless SHARED is given; with SHARED, or against an
# installed Kiln (find_package(Kiln)), it becomes the shared object
# kiln_plugin_<ID>.so that --kiln-load-plugin loads (in OUTPUT_DIRECTORY,
# by default lib/plugins of Kiln's build or the caller's binary folder).
# The plugin's sources may include headers from its source folder and files
# generated in its binary folder (after DEPENDS, e.g. TableGen targets).
function(kiln_add_plugin id)
  cmake_parse_arguments(ARG "SHARED" "OUTPUT_DIRECTORY" "SRCS;LINK_LIBS;DEPENDS" ${ARGN})
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
    kiln_plugin_common(KilnPlugin_${id})
    return()
  endif()

  add_library(kiln_plugin_${id} MODULE ${ARG_SRCS})
  target_compile_definitions(kiln_plugin_${id} PRIVATE KILN_PLUGIN_SHARED)
  set_target_properties(kiln_plugin_${id} PROPERTIES PREFIX "")
  if(KILN_IN_TREE)
    add_dependencies(kiln_plugin_${id} KilnCompilerHeaders)
    target_link_libraries(kiln_plugin_${id} PRIVATE KilnCompiler MLIR LLVM
                          ${ARG_LINK_LIBS})
    if(NOT ARG_OUTPUT_DIRECTORY)
      set(ARG_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib/plugins)
    endif()
  else()
    target_link_libraries(kiln_plugin_${id} PRIVATE Kiln::KilnCompiler
                          ${ARG_LINK_LIBS})
  endif()
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(kiln_plugin_${id} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIRECTORY})
  endif()
  kiln_plugin_common(kiln_plugin_${id})
endfunction()

# What both kinds of plugin target get: the plugin's folders on the include
# path, and its generated files built first.
macro(kiln_plugin_common target)
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                             ${CMAKE_CURRENT_BINARY_DIR})
  if(ARG_DEPENDS)
    add_dependencies(${target} ${ARG_DEPENDS})
  endif()
endmacro()
