"""Statistics, models and explanations computed from stored runs.

Depends only on result types (``ssdprof.model.results``, ``ssdprof.model.workload``): no store, no runner,
no globals. Every function takes runs or plain arrays and returns frozen values.
"""
