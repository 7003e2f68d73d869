"""Every message the system sends (mail today), written in the transaction of the change that
causes it and delivered once by a worker, or by the beat's sweep when the broker was down."""
