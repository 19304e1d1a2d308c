"""A table's session: the file a referee keeps (:mod:`.load`), every hand scored and settled with
the winds moving as each system says (:mod:`.engine`, :mod:`.seats`), penalties (:mod:`.penalties`),
the closing and the ranking (:mod:`.closing`), and the sheet as text, CSV, JSON and HTML
(:mod:`.output`, :mod:`.html`). Photos come in through :mod:`.photo`; payments through
:func:`.settle.hand_payments` alone.
"""
