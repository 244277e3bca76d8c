// Package mic captures the microphone for the desktop window, where WebKitGTK does
// not grant getUserMedia: a recorder program (PipeWire's pw-record, PulseAudio's
// parecord or ALSA's arecord) runs as a child process in a group of its own and
// writes 16 kHz mono s16le PCM to its stdout; a WAV file or silence stand in for it
// in tests and demos (WISP_MIC_FILE, WISP_MIC=null). A Recorder keeps what a Source
// gives in memory and hands it back as WAV, with the level of the last 50 ms; a VAD
// cuts hands-free listening into utterances by energy against an adaptive noise
// floor. It imports nothing of Wisp but internal/.
package mic
