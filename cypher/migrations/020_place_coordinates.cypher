// A point index on places' coordinates (WGS 84 points): the entity
// listing's near filter (point.distance within a radius) reads the places
// in the circle from it instead of every place.
CREATE POINT INDEX place_coordinates IF NOT EXISTS
FOR (p:Place) ON (p.coordinates)
