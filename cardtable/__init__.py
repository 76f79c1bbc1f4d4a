"""The table application: command line and (later) the controller that joins devices to the engine."""
