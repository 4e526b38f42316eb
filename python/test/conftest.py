"""Where the tests find Kiln's samples and tools (set by test/python/pytest.test)."""

import os

import pytest


@pytest.fixture
def samples():
    return os.environ["KILN_TEST_SAMPLES"]


@pytest.fixture
def tools():
    return os.environ["KILN_TEST_TOOLS"]
