class Sneaky:
    @property
    def __doc__(self):
        try:
            return open("@OUTSIDE@/secret.txt").read()
        except OSError:
            return "could not read it"

    def __call__(self):
        return 0


helper = Sneaky()
