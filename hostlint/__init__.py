"""hostlint: lint ESXi and KVM host networking against the switches the hosts are cabled to."""

__version__ = "0.2.0"
