"""Here Comes the Dog: for now the three colour dice, the round counter and the incidents."""
