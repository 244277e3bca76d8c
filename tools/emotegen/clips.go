package main

// motions maps every built-in emote id to its movement.
var motions = map[string]motion{
	"wave": waveHello, "kiss": kiss,
	"crying": crying, "sorrow": sorrow, "rude-gesture": rudeGesture, "looking-around": lookingAround,
	"dance-happy": danceHappy, "dance-breaking": danceBreaking, "dance-hiphop": danceHiphop, "dance-popping": dancePopping,
	"hook-punch": hookPunch, "punching": punching, "firing-gun": firingGun, "sword-swing": swordSwing,
	"chopping": chopping, "spell-cast": spellCast, "range": archery, "death": death,
	"idle": idle, "talk": talk, "squat": squat, "fishing": fishing, "float": float,
	"jump": jump, "flip": flip, "run": run, "walk": walk, "crawling": crawling, "fall": fall,
}
