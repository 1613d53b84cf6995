"""Chinese: typography, title marks and literals on the pages, and search cut into words."""
