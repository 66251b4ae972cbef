"""Measurement tools for the Nengo backend (the operator census plugin
``census`` and its report ``summarize``)."""
