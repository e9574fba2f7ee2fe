"""What is measured: the file, folder or block device a workload opens, checked before anything is written, and the machine around it."""
