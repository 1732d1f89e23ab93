package games

import (
	"context"
	"errors"
	"time"

	"herald/pbem/mailbox"
)

// Handle is the mailbox.Handler of the service: it processes a fetched
// mail and tells the intake how to file it. An error leaves the mail
// unseen, to be offered again; other mails go on meanwhile.
func (s *Service) Handle(_ context.Context, m mailbox.Message) (mailbox.Disposition, error) {
	handle := s.HandleMail
	if m.HeaderOnly {
		handle = func(h []byte) (Outcome, error) { return s.HandleHeader(h, m.Size) }
	}
	out, err := handle(m.Raw)
	if err != nil {
		s.log.Error("mail failed", "uid", m.UID, "message_id", m.MessageID, "attempt", m.Attempt, "err", err)
		return 0, err
	}
	s.Kick()
	if out.Rejected {
		return mailbox.Rejected, nil
	}
	return mailbox.Processed, nil
}

// Kick wakes the outbox loop: mail was queued.
func (s *Service) Kick() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// RunOutbox drains the outbox whenever mail is queued, and at least every
// interval (for retries that fall due), until ctx ends.
func (s *Service) RunOutbox(ctx context.Context, send SendFunc, interval time.Duration) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := s.DrainOutbox(ctx, send); err != nil && !errors.Is(err, context.Canceled) {
			s.log.Error("outbox", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.wake:
		case <-t.C:
		}
	}
}

// Serve runs the service on a mailbox until ctx ends: the intake hands
// every new mail to Handle, and the outbox loop sends the replies.
func (s *Service) Serve(ctx context.Context, in *mailbox.Intake, send SendFunc, interval time.Duration) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.RunOutbox(ctx, send, interval) }()
	err := in.Run(ctx, s.Handle)
	cancel()
	<-done
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
