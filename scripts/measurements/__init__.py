"""scripts/measure's modules: render.py turns the JSON the benches and
reproductions write into the pages under docs/measurements."""
