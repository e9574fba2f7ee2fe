"""fio as a measuring instrument: running it, parsing its output of any version, its histogram layout, live progress, job files."""
