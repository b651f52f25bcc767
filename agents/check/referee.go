package check

import "context"

func (s *session) checkReferee(ctx context.Context) {}
