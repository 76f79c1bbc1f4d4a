"""The table controller: joins the shoe reader, the table reader, the seat panels and the GPIO
buttons to the rules engine, keeps every input and engine event in a durable SQLite log, and
tells the displays what changed. Data flows one way: sensors → controller → engine → displays."""
