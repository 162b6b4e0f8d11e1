"""A mechanics module that fails while it loads."""


def charge_reach(move):
    return move * values.charge_factor


REACH = charge_reach(values.move)
