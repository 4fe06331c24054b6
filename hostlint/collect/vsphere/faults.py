"""A fault the server answered with, as one line for the user: its type, and for a refusal the privilege and object."""

from __future__ import annotations

from pyVmomi import vim, vmodl


def fault_text(fault: vmodl.MethodFault) -> str:
    """The fault's type, and for NoPermission the privilege and the object it was refused on."""
    kind = type(fault).__name__.rpartition(".")[2]
    if isinstance(fault, vim.fault.NoPermission):
        privileges: list[str] = [fault.privilegeId] if fault.privilegeId else []
        for missing in getattr(fault, "missingPrivileges", None) or []:
            privileges += [p for p in missing.privileges or [] if p not in privileges]
        target = getattr(fault, "object", None)
        # the API's type name (HostNetworkSystem), as vCenter's own messages and its object browser name it
        kind_of = getattr(target, "_wsdlName", None) or type(target).__name__.rpartition(".")[2]
        where = f" on {kind_of} {target._moId}" if target is not None else ""
        missing_text = ", ".join(privileges) or "unnamed"
        return f"{kind}: privilege {missing_text}{where}"
    message = getattr(fault, "msg", None) or ""
    return f"{kind}: {message}" if message and message != kind else kind


class PhaseFailed(Exception):
    """A call broke off without an answer (connection reset, a garbled reply): `phase` names what was being read."""

    def __init__(self, phase: str, cause: Exception) -> None:
        self.phase = phase
        self.reason = str(cause) or type(cause).__name__
        super().__init__(f"{phase}: {self.reason}")
