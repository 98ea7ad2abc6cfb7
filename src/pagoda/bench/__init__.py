"""Benchmarks: ``pagoda bench <game>`` prints figures; ``docs/benchmarks.md`` records them."""
