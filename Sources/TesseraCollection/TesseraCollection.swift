// The headless collection engine: data source, type-safe reuse, layouts, scroll physics,
// visible and prefetch ranges, batch updates and image binding.
