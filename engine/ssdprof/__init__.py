"""ssdprof engine: workloads, fio and portable runners, results store, analysis and CLI."""

__version__ = "0.1.0"
__all__ = ["__version__"]
