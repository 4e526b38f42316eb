# Lit configuration that runs Kiln's GoogleTest binaries, so that
# `ninja check-kiln` runs unit tests along with the IR tests.
import os

import lit.formats

config.name = "Kiln-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.kiln_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
