"""The check daemon: `rulepress check` answered by a warm process (``client``: the check's side; ``server``)."""
