"""The sanitizer options Kiln's instrumented programs run with.

test/lit.cfg.py and test/Unit/lit.cfg.py put them into every test's
environment when the build is instrumented (KILN_SANITIZE); run a tool by
hand the same way with

    eval "$(/usr/bin/python3 build_tools/sanitizers/environment.py)"
"""
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def sanitizer_environment():
    """The environment variables, as a dict."""
    return {
        # allow_user_poisoning=0: LLVM's BumpPtrAllocator, inlined into
        # Kiln's instrumented code, poisons the slabs it starts and unpoisons
        # what it hands out; the same allocator's methods compiled into the
        # uninstrumented libMLIR.so hand out memory without unpoisoning it,
        # and Kiln's reads of that memory would be reported as overflows.
        # detect_leaks=1 with lsan.supp: leaks are checked at exit.
        # abort_on_error=1: a report ends the program with SIGABRT, which
        # `not` in a test counts as a crash, not as the failure it expects.
        # allocator_may_return_null=1: an allocation that cannot be made
        # returns NULL, as it does without the sanitizer, instead of ending
        # the program with a report; the runtime's out-of-memory errors are
        # tested that way (test/tools/kiln-run-out-of-memory.test).
        # use_sigaltstack=0: LLVM installs its signal handlers (for files to
        # remove on a signal) on the first thread that asks, with an
        # alternate signal stack it allocates itself when the thread's is
        # smaller than it wants. When that thread is one the sanitizer
        # started a stack for (a compile on a thread of the C API's
        # caller), the sanitizer unmaps LLVM's stack as its own when the
        # thread ends, fails, and ends the program.
        "ASAN_OPTIONS": ":".join([
            "allocator_may_return_null=1",
            "allow_user_poisoning=0",
            "detect_leaks=1",
            "abort_on_error=1",
            "halt_on_error=1",
            "symbolize=1",
            "strict_string_checks=1",
            "detect_stack_use_after_return=1",
            "check_initialization_order=1",
            "use_sigaltstack=0",
        ]),
        "LSAN_OPTIONS": "suppressions=" + os.path.join(_HERE, "lsan.supp")
                        + ":print_suppressions=0",
        "UBSAN_OPTIONS": ":".join([
            "print_stacktrace=1",
            "halt_on_error=1",
            "abort_on_error=1",
            "suppressions=" + os.path.join(_HERE, "ubsan.supp"),
        ]),
        "ASAN_SYMBOLIZER_PATH": "/usr/lib/llvm-22/bin/llvm-symbolizer",
    }


if __name__ == "__main__":
    for name, value in sanitizer_environment().items():
        print("export {}='{}'".format(name, value))
