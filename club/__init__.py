"""The club: many tables' logs gathered over MQTT into one database (``club.server``)."""
