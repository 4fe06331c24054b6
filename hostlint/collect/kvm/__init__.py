"""KVM hosts: Linux networking (sysfs, /proc/net/bonding, OVS, lldpd) and libvirt, local or over SSH."""
