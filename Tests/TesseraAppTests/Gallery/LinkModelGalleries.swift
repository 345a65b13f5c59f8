import Testing

/// The galleries that run over the link model (`LinkSession`), one at a time. Their pumps run
/// off Swift's cooperative pool (`LinkSession.pumpOffThePool`), so no other test waits for
/// them; run all at once, six debug galleries starting together on two cores answered late,
/// and a kitty gallery whose probe had no answer yet did not know it was kitty and sent no
/// previews.
@Suite(.serialized) enum LinkModelGalleries {}
