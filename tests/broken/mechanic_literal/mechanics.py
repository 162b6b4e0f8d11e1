"""A mechanics module that types a number the data should name."""


def charge_reach(move):
    return move * 2
