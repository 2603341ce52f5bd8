# Every field name plan --json writes, from its outputs: a file of one
# policy's plan, or of all three ({"plans": [...]} with the common fields).
# Shared by errors.sh (the man page's list) and readme.sh (the README's).
import json


def plan_keys(*paths):
    keys = set()

    def plan(o):
        keys.update(o)
        keys.update(o["cpus"][0])
        keys.update(o["vs_performance"])
        for lv in o["active"].values():
            keys.update(lv)

    for path in paths:
        o = json.load(open(path))
        if "plans" in o:
            keys.update(o)
            for p in o["plans"]:
                plan(p)
        else:
            plan(o)
    return keys
