"""The workload, its results and the sweeps and events around them: typed values, units in the names."""
