"""What keeps stored text private: redaction of credential shapes before anything is written. Stdlib only (the hook path imports it)."""
