"""The pre-battle step panels (one per step of the flow)."""
