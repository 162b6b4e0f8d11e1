with open("@OUTSIDE@/../project/build/earlier-output.txt", "w") as out:
    out.write("overwritten by mechanics")
