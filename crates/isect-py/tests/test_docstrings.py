"""The examples in the package's docstrings run and print what they show."""

import doctest

import numpy as np
import pytest

import isect


def documented():
    """Every public function, class and method of the package whose docstring has an example."""
    found = []
    for name in sorted(dir(isect)):
        item = getattr(isect, name)
        if name.startswith("_") or not (callable(item) and ">>>" in (item.__doc__ or "")):
            continue
        found.append((name, item))
    return found


def test_there_are_examples():
    assert len(documented()) >= 20


@pytest.mark.parametrize("name,item", documented(), ids=lambda x: x if isinstance(x, str) else "")
def test_docstring_examples_run(name, item):
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    test = parser.get_doctest(item.__doc__, {"isect": isect, "np": np}, name, None, 0)
    result = runner.run(test)
    assert result.attempted > 0 and result.failed == 0, name
