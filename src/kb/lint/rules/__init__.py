"""One module per lint rule, ``kbNNN_<name>.py``; the order of use is :data:`kb.lint.registry.RULES`."""
