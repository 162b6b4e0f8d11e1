SECRET = open("@OUTSIDE@/secret.txt").read()
