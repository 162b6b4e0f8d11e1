"""A mechanic that loads and answers at once: no limit of time should end it."""

__all__ = ["at_the_double"]


def at_the_double(inches):
    return inches * 2
