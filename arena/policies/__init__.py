"""In-process policies: observation in, action out. Sample bots serve these over gRPC."""

from .base import Policy
from .greedy import GreedyPolicy
from .random_policy import RandomPolicy

__all__ = ["GreedyPolicy", "Policy", "RandomPolicy"]
