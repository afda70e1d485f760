"""Developer scripts, not shipped with munda-tui: the benchmark (``python -m scripts.bench``
or ``python scripts/bench.py``) and the test-data generators (``scripts.generate``) that the
benchmark and the tests share."""
