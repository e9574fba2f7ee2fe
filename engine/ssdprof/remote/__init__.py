"""Remote hosts over SSH: addresses and OpenSSH argv (quoting only here), fio on many hosts behind one barrier, Ceph."""
