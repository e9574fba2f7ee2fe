"""Earlier runs from the tools labs already use, read by their content: fio JSON, cbt results trees,
elbencho's results CSV and text file, diskspd's XML, CrystalDiskMark's and KDiskMark's text exports.
One module per tool; ``recognise`` tells which wrote a file, ``stored`` keeps the runs once."""
