"""Play mode: turn tracker, figure panel, actions with exact odds, dice and the log (``panel``)."""
