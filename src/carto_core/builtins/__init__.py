"""Core's own plugins: registered through the same hooks as any third party's."""
