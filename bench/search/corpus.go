package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The corpus is chat history made up from a seed, the same on every machine: words
// drawn from a Zipf distribution over a ranked vocabulary (common English words
// first, then words of everyday assistant topics, then a long tail of made-up
// names and terms, a few with diacritics or in other scripts), with each
// conversation leaning on a topic of its own, so that related words meet in the
// same messages as they do in real chats.

// functionWords are the most frequent words, in rank order.
var functionWords = strings.Fields(`the to and a of I you it is that for in on this with be
	can what do my have are not at we your so if but about just will or me from how
	there was an all they it's like get as one would up out when should don't need
	more some time no which here also it's any now then think know make use want right
	could go see new good first other than only into because well them after sure let's
	please thanks yes okay maybe still again really much over before where back way`)

// topicWords are the words people ask an assistant about, grouped loosely by theme;
// their order is their rank after the function words.
var topicWords = strings.Fields(`deploy staging server build release branch merge commit
	test failing pipeline docker image cluster database migration index query backup
	restore schema table column error log warning timeout latency memory cpu disk network
	proxy certificate domain config setting password token key account login email invoice
	payment budget report meeting agenda calendar schedule deadline project roadmap draft
	document slide presentation spreadsheet chart summary notes review feedback team
	manager client customer contract proposal estimate quote order delivery shipping
	package refund receipt subscription plan upgrade laptop phone battery charger screen
	keyboard printer router wifi bluetooth update install driver kernel terminal shell
	script python golang rust javascript typescript react component function variable
	loop array string parser compiler library module package dependency version bug fix
	patch issue ticket sprint standup retro recipe dinner lunch breakfast soup pasta
	bread cake coffee tea garden tomato basil flowers soil compost weather rain sunny
	forecast trip train flight hotel booking ticket passport visa museum beach mountain
	hiking bike running workout gym yoga sleep doctor appointment dentist pharmacy
	medicine allergy birthday gift party wedding anniversary friend family mother father
	sister brother kids school homework exam lesson piano guitar song playlist movie
	series book chapter novel poem story article podcast news election tax mortgage rent
	apartment lease landlord neighbor kitchen bathroom paint furniture lamp desk chair
	couch carpet cleaning laundry groceries shopping list reminder alarm timer lighthouse
	ferry harbor island festival lantern concert ticket museum gallery painting photo
	camera lens tripod drone satellite telescope planet galaxy physics chemistry biology
	history language spanish french german japanese grammar vocabulary translation`)

// accented are words of other scripts and with diacritics, spread through the tail.
var accented = strings.Fields(`café naïve résumé Zürich München São Paulo crème brûlée
	jalapeño piñata façade déjà über Ærø smörgåsbord Kraków Łódź 東京 北京 서울 Москва Αθήνα`)

// syllables build the tail's made-up words.
var syllables = strings.Fields(`ka lo mer tin sa vo ri den pal qua zel mon tra fi gor
	ben lu shi ro ne vak tor sil dra pe min ko ul ara bes cor ith lan`)

// vocabulary is every word of the corpus, most frequent first.
func vocabulary(tail int, rng *rand.Rand) []string {
	words := append(append([]string{}, functionWords...), topicWords...)
	seen := map[string]bool{}
	for _, w := range words {
		seen[w] = true
	}
	for len(words) < len(functionWords)+len(topicWords)+tail {
		var b strings.Builder
		for range 2 + rng.IntN(3) {
			b.WriteString(syllables[rng.IntN(len(syllables))])
		}
		w := b.String()
		if rng.IntN(400) == 0 {
			w = accented[rng.IntN(len(accented))]
		}
		if !seen[w] || rng.IntN(50) == 0 {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}

// corpus makes messages.
type corpus struct {
	rng   *rand.Rand
	words []string
	zipf  *rand.Zipf
	topic []string // the current conversation's favourite words
}

func newCorpus(seed uint64) *corpus {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	words := vocabulary(20000, rng)
	return &corpus{rng: rng, words: words, zipf: rand.NewZipf(rng, 1.07, 2, uint64(len(words)-1))}
}

// newTopic picks the next conversation's topic: eight topic words.
func (c *corpus) newTopic() {
	c.topic = c.topic[:0]
	for range 8 {
		c.topic = append(c.topic, topicWords[c.rng.IntN(len(topicWords))])
	}
}

// word is the next word: a fifth of them from the topic.
func (c *corpus) word() string {
	if len(c.topic) > 0 && c.rng.IntN(5) == 0 {
		return c.topic[c.rng.IntN(len(c.topic))]
	}
	return c.words[c.zipf.Uint64()]
}

// message is one message's text: a user's short question or an assistant's longer
// answer, in sentences with capitals and punctuation, now and then a list or a number.
func (c *corpus) message(assistant bool) string {
	n := 4 + c.rng.IntN(22)
	if assistant {
		n = 20 + c.rng.IntN(100)
	}
	var b strings.Builder
	sentence := 0
	for i := range n {
		w := c.word()
		switch {
		case sentence == 0:
			if i > 0 {
				b.WriteString(" ")
			}
			if assistant && c.rng.IntN(12) == 0 {
				b.WriteString("\n- ")
			}
			b.WriteString(capitalise(w))
		case c.rng.IntN(30) == 0:
			fmt.Fprintf(&b, " %d", c.rng.IntN(2030))
			b.WriteString(" " + w)
		default:
			b.WriteString(" " + w)
		}
		sentence++
		if sentence > 3 && c.rng.IntN(9) == 0 || i == n-1 {
			b.WriteString([]string{".", ".", ".", "?", "!", ":"}[c.rng.IntN(6)])
			sentence = 0
		} else if c.rng.IntN(14) == 0 {
			b.WriteString(",")
		}
	}
	return b.String()
}

func capitalise(w string) string {
	if w == "" || w[0] < 'a' || w[0] > 'z' {
		return w
	}
	return string(w[0]-'a'+'A') + w[1:]
}

// queries are n two-word searches people might type: two words of one topic, as a
// conversation about it would have them, all different.
func queries(seed uint64, n int) []string {
	rng := rand.New(rand.NewPCG(seed, 7))
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		a, b := topicWords[rng.IntN(len(topicWords))], topicWords[rng.IntN(len(topicWords))]
		q := a + " " + b
		if a == b || seen[q] {
			continue
		}
		seen[q] = true
		out = append(out, q)
	}
	return out
}
