"""hostlint: lint ESXi and KVM host networking against the switches the hosts are cabled to."""

__version__ = "0.1.0"
