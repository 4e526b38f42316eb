# Lit configuration that runs Kiln's GoogleTest binaries, so that
# `ninja check-kiln` runs unit tests along with the IR tests.
import os

import lit.formats

config.name = "Kiln-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.kiln_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")

# An instrumented build (KILN_SANITIZE): every program runs with the
# sanitizer options and suppressions of build_tools/sanitizers.
if config.kiln_sanitized:
    import sys
    sys.path.insert(0, os.path.join(config.kiln_source_dir, "build_tools",
                                    "sanitizers"))
    from environment import sanitizer_environment
    config.environment.update(sanitizer_environment())
    config.available_features.add("sanitized")
