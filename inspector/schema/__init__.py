"""schema"""
