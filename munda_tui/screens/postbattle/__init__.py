"""The post-battle wizard."""
