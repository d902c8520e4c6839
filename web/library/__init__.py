"""The encounter library: localStorage documents (``storage``) and its panel (``panel``)."""

PANEL_IMPORTS = (
    "hexcombat.roster",
    "web.engine_slices",
    "web.library.importing",
    "web.library.new_encounter",
    "web.library.roster",
    "web.library.roster_list",
    "web.library.panel",
)
"""What importing web.library.panel imports that the start has not, each after what it
imports: a tap on Library imports them one a task (together they held a slow tablet's main
thread 0.2-0.5 s)."""
