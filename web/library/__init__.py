"""The encounter library: localStorage documents (``storage``) and its panel (``panel``)."""
