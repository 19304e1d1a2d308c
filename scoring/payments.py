"""What every rule system's settlement is made of: one player paying another an amount.

Shared so that table settlements (Australian, Classical, …) print and serialise payments the
same way ("E→W 800" in notes, ``{"from", "to", "amount"}`` in JSON).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Payment:
    payer: str
    payee: str
    amount: int

    def __str__(self) -> str:
        return f"{self.payer}→{self.payee} {self.amount}"

    def as_dict(self) -> dict[str, str | int]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}
