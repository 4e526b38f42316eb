# Instrumented builds of Kiln's own code (compiler, runtime, tools, tests):
#
#   KILN_SANITIZE=address,undefined   AddressSanitizer and/or
#                                     UndefinedBehaviorSanitizer
#   KILN_FUZZ=ON                      coverage for libFuzzer, and the fuzz
#                                     targets of fuzz/ (needs Clang)
#
# Debian's libMLIR.so and libLLVM.so stay uninstrumented: what runs inside
# them is not checked, and what they report is suppressed in
# build_tools/sanitizers/ (each entry with its reason). Included after
# HandleLLVMOptions, before any target.

set(KILN_SANITIZE "" CACHE STRING
    "Sanitizers for Kiln's own code: address, undefined, or address,undefined")
option(KILN_FUZZ "Build the libFuzzer targets of fuzz/ (needs Clang)" OFF)

string(REPLACE "," ";" _kiln_sanitize_list "${KILN_SANITIZE}")
set(_kiln_sanitizers)
foreach(_sanitizer IN LISTS _kiln_sanitize_list)
  string(STRIP "${_sanitizer}" _sanitizer)
  list(APPEND _kiln_sanitizers "${_sanitizer}")
endforeach()
set(_kiln_sanitize_flags)
foreach(_sanitizer IN LISTS _kiln_sanitizers)
  if(_sanitizer STREQUAL "address")
    list(APPEND _kiln_sanitize_flags -fsanitize=address)
  elseif(_sanitizer STREQUAL "undefined")
    # As LLVM's own sanitized builds: `vptr` and `function` check calls
    # through types and function pointers that come from the uninstrumented
    # libMLIR, and report its objects as mistyped.
    list(APPEND _kiln_sanitize_flags -fsanitize=undefined
         -fno-sanitize=vptr,function -fno-sanitize-recover=all)
  elseif(NOT _sanitizer STREQUAL "")
    message(FATAL_ERROR "KILN_SANITIZE: unknown sanitizer '${_sanitizer}' "
            "(known: address, undefined; e.g. -DKILN_SANITIZE=address,undefined)")
  endif()
endforeach()

if(KILN_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR
     NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "KILN_FUZZ needs Clang (libFuzzer): configure with "
            "-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22")
  endif()
  if(NOT "address" IN_LIST _kiln_sanitizers)
    # The coverage callbacks of programs that are not fuzzers come from
    # the AddressSanitizer runtime.
    message(FATAL_ERROR "KILN_FUZZ needs KILN_SANITIZE to include address")
  endif()
  list(APPEND _kiln_sanitize_flags -fsanitize=fuzzer-no-link)
endif()

if(_kiln_sanitize_flags)
  # Frame pointers and line tables: reports name the file and line.
  add_compile_options(${_kiln_sanitize_flags} -fno-omit-frame-pointer -g1)
  add_link_options(${_kiln_sanitize_flags})
  # The sanitizer runtimes live in the executable, so a shared library's
  # references to them are undefined until it is loaded: drop the
  # "every symbol defined" check that HandleLLVMOptions adds.
  string(REPLACE "-Wl,-z,defs" "" CMAKE_SHARED_LINKER_FLAGS
         "${CMAKE_SHARED_LINKER_FLAGS}")
  set(KILN_SANITIZED ON)
  message(STATUS "Kiln: instrumented with ${_kiln_sanitize_flags}")
else()
  set(KILN_SANITIZED OFF)
endif()
