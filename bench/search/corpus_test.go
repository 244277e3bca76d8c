package main

import (
	"slices"
	"strings"
	"testing"
)

// The corpus is the same for a seed on every run (the cache depends on it) and
// varied: both roles' lengths, topic words, words of other scripts.
func TestCorpusIsSeededAndVaried(t *testing.T) {
	a, b := newCorpus(1), newCorpus(1)
	var texts []string
	for i := range 400 {
		if i%50 == 0 {
			a.newTopic()
			b.newTopic()
		}
		ta, tb := a.message(i%2 == 1), b.message(i%2 == 1)
		if ta != tb {
			t.Fatalf("message %d differs for one seed:\n%q\n%q", i, ta, tb)
		}
		texts = append(texts, ta)
	}
	if other := newCorpus(2); other.message(false) == texts[0] && other.message(true) == texts[1] {
		t.Fatal("another seed writes the same messages")
	}
	words := map[string]bool{}
	for _, text := range texts {
		for _, w := range strings.Fields(text) {
			words[strings.ToLower(strings.Trim(w, ".,?!:-"))] = true
		}
	}
	if len(words) < 1000 {
		t.Errorf("400 messages use only %d different words", len(words))
	}
	if !slices.ContainsFunc(a.words, func(w string) bool { return strings.ContainsAny(w, "éøüłå東서Α") }) {
		t.Error("the vocabulary has no word of another script or with diacritics")
	}
}

func TestQueriesAreTwoDifferentTopicWords(t *testing.T) {
	qs := queries(7, 50)
	if len(qs) != 50 || !slices.Equal(qs, queries(7, 50)) {
		t.Fatalf("queries: %d, or not the same for one seed", len(qs))
	}
	seen := map[string]bool{}
	for _, q := range qs {
		w := strings.Fields(q)
		if len(w) != 2 || w[0] == w[1] || seen[q] || !slices.Contains(topicWords, w[0]) || !slices.Contains(topicWords, w[1]) {
			t.Errorf("query %q", q)
		}
		seen[q] = true
	}
}
